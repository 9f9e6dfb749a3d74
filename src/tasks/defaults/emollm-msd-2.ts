/**
 * EmoLLM setting `msd` (technical assistance, MSDialog-like), seeds 21–40. Written for this project; no dataset
 * text.
 */
import { seedWriter } from './emollm-author';

const s = seedWriter('msd');

export const EMOLLM_MSD_SEEDS_2 = [
  s(
    21,
    'frustration',
    0.6,
    [-0.5, -0.2, -0.3, 0.1],
    [
      'You are a patient support assistant helping someone whose PC shows a blue screen at start-up.',
      'My PC boots to a blue screen saying CRITICAL_PROCESS_DIED and restarts in a loop since last night.',
      'A hobbyist video editor who built his own desktop two years ago.',
    ],
    ['get the PC to boot', 'keep his editing projects'],
    ['blue screen', 'projects'],
    [
      [
        'The stop code is CRITICAL_PROCESS_DIED.',
        'critical_process_died|stop code',
        'memory_management|irql',
      ],
      ['It started last night.', 'last night', 'last month|this morning'],
      ['He built the desktop himself.', 'built|desktop', 'laptop|bought it from a shop'],
    ],
  ),
  s(
    22,
    'anxiety',
    0.5,
    [-0.4, -0.3, -0.3, 0.2],
    [
      'You are a reassuring support assistant helping an older user whose screen text became tiny.',
      'Everything on my screen suddenly went tiny after my grandson used the computer. I cannot read my emails.',
      'An 81-year-old widower who uses his PC to email his family in Canada.',
    ],
    ['read his emails again', 'fix it without calling his grandson'],
    ['screen', 'emails'],
    [
      ['It happened after the grandson used the computer.', 'grandson', 'after an update|granddaughter'],
      ['His family lives in Canada.', 'canada', 'australia|america'],
    ],
  ),
  s(
    23,
    'anger',
    0.6,
    [-0.6, -0.2, -0.3, 0],
    [
      'You are a courteous helpdesk assistant helping someone whose laptop battery died within a year.',
      'My eleven-month-old laptop battery lasts twenty minutes now. The shop says the warranty does not cover batteries.',
      'A delivery driver who uses the laptop for his evening course.',
    ],
    ['get the battery replaced', 'know his rights on the warranty'],
    ['battery', 'warranty'],
    [
      ['The laptop is eleven months old.', 'eleven months|11 months', 'three years|two years'],
      ['The battery lasts twenty minutes.', 'twenty minutes|20 minutes', 'two hours|does not charge at all'],
    ],
  ),
  s(
    24,
    'frustration',
    0.5,
    [-0.4, -0.2, -0.2, 0.2],
    [
      'You are a helpful support assistant helping someone whose OneDrive keeps showing sync errors.',
      'OneDrive shows a red cross on 300 files and says "file name not valid". I need them on my work laptop.',
      'A freelance illustrator who names files with dates and slashes.',
    ],
    ['get the files syncing', 'understand the naming rule'],
    ['onedrive', 'file names'],
    [
      ['About 300 files fail to sync.', '300|three hundred', '3 files|thousands'],
      ['The error says the file name is not valid.', 'file name|not valid', 'storage full|no internet'],
    ],
  ),
  s(
    25,
    'anxiety',
    0.8,
    [-0.7, -0.5, -0.5, 0.4],
    [
      'You are a calm support assistant helping someone who sent a confidential file to the wrong person.',
      'I just emailed a spreadsheet with staff salaries to a supplier instead of my manager. Can I unsend it?',
      'A payroll clerk in her second month at a logistics firm using Outlook.',
    ],
    ['limit the damage', 'tell her manager the right way'],
    ['salary spreadsheet', 'supplier'],
    [
      ['The spreadsheet contains staff salaries.', 'salaries|salary', 'holiday rota|stock list'],
      ['It went to a supplier.', 'supplier', 'a customer|the whole company'],
      ['She uses Outlook.', 'outlook', 'gmail|yahoo'],
    ],
  ),
  s(
    26,
    'frustration',
    0.4,
    [-0.3, -0.1, -0.2, 0.1],
    [
      'You are a friendly technical assistant helping someone whose mouse cursor jumps around.',
      'My mouse pointer keeps jumping to the corner while I type. It started after I got a new wireless mouse.',
      'A novelist who writes for six hours a day.',
    ],
    ['type without the cursor jumping', 'get back to writing'],
    ['mouse', 'cursor'],
    [
      ['It started with a new wireless mouse.', 'wireless|new mouse', 'wired mouse|trackpad only'],
      ['The pointer jumps to the corner while typing.', 'corner|while i type|typing', 'freezes|disappears'],
    ],
  ),
  s(
    27,
    'anger',
    0.7,
    [-0.7, -0.3, -0.4, 0.1],
    [
      'You are a courteous support assistant helping someone whose new PC is full of pop-ups.',
      'I bought a new PC last week and it is already full of pop-ups telling me I have 27 viruses. I paid £600 for this.',
      'A retired bus driver who bought the PC to video-call his grandchildren.',
    ],
    ['get rid of the pop-ups safely', 'video-call his grandchildren'],
    ['pop-ups', 'new pc'],
    [
      ['The PC was bought last week for £600.', 'last week|£600|600', '£6,000|last year'],
      ['The pop-ups claim 27 viruses.', '27 viruses|pop-up', 'one virus|blue screen'],
    ],
  ),
  s(
    28,
    'frustration',
    0.6,
    [-0.5, -0.2, -0.3, 0.2],
    [
      'You are a patient helpdesk assistant helping someone whose Excel formulas show as text.',
      'I type =SUM(B2:B40) and Excel just shows the formula instead of the total. Every cell in that column.',
      'A volunteer treasurer for a youth football club.',
    ],
    ['get the totals working', 'finish the club accounts'],
    ['formulas', 'column'],
    [
      ['The formula is =SUM(B2:B40).', 'sum|b2:b40', 'average|vlookup'],
      ['It shows the formula instead of the total.', 'shows the formula|as text', 'shows an error|#value'],
    ],
  ),
  s(
    29,
    'anxiety',
    0.6,
    [-0.5, -0.4, -0.4, 0.1],
    [
      'You are a reassuring support assistant helping someone whose webcam light turned on by itself.',
      'The little light by my laptop camera switched on while I was not using any app. Is someone watching me?',
      'A 23-year-old law student living in shared housing.',
    ],
    ['know whether she is being watched', 'feel safe using the laptop'],
    ['webcam light', 'laptop'],
    [
      ['The camera light came on with no app open.', 'camera|light', 'microphone only|no light'],
      ['She lives in shared housing.', 'shared|housemates', 'lives alone|with parents'],
    ],
  ),
  s(
    30,
    'frustration',
    0.5,
    [-0.4, -0.2, -0.3, 0.1],
    [
      'You are a helpful technical assistant helping someone whose second monitor is not detected.',
      'I bought a second monitor and plugged it in by DisplayPort, but Windows only sees one screen.',
      'A trader working from home who wants charts on a second screen.',
    ],
    ['use both screens', 'set up before markets open'],
    ['second monitor', 'displayport'],
    [
      ['It is plugged in by DisplayPort.', 'displayport', 'hdmi|usb-c'],
      ['Windows only sees one screen.', 'one screen|detect', 'both screens work|flickers'],
    ],
  ),
  s(
    31,
    'sadness',
    0.5,
    [-0.5, -0.3, -0.3, 0.2],
    [
      'You are a kind support assistant helping someone who lost messages from a late parent.',
      'I changed phones and all the voice notes from my mum, who died in March, did not transfer. They were all I had.',
      'A 40-year-old nurse who moved from an old Android to a new Android.',
    ],
    ['recover the voice notes', 'keep them safe for good'],
    ['voice notes', 'old phone'],
    [
      ['Her mother died in March.', 'march', 'last week|last year'],
      ['She moved from an old Android to a new Android.', 'android|old phone', 'iphone'],
      ['The voice notes did not transfer.', 'voice notes|transfer', 'photos did not'],
    ],
  ),
  s(
    32,
    'frustration',
    0.7,
    [-0.6, -0.3, -0.3, 0.2],
    [
      'You are a patient support assistant helping someone whose game keeps crashing.',
      'The game crashes to desktop after the loading screen every time since the graphics driver update.',
      'A 21-year-old engineering student with a gaming laptop.',
    ],
    ['play again tonight', 'not break the laptop further'],
    ['graphics driver', 'game'],
    [
      ['It started after a graphics driver update.', 'driver|update', 'new ram|virus'],
      ['It crashes after the loading screen.', 'loading screen|crash', 'will not install|no sound'],
    ],
  ),
  s(
    33,
    'anxiety',
    0.4,
    [-0.3, -0.2, -0.3, 0.2],
    [
      'You are a calm helpdesk assistant helping someone moving files to a new laptop.',
      'My new laptop arrives Friday and my old one has five years of invoices. I am scared to miss something.',
      'A self-employed electrician who does his own bookkeeping.',
    ],
    ['move every invoice safely', 'keep the old laptop until sure'],
    ['invoices', 'new laptop'],
    [
      ['The new laptop arrives Friday.', 'friday', 'monday|already arrived'],
      ['He has five years of invoices.', 'five years|invoices', 'one year|photos'],
    ],
  ),
  s(
    34,
    'anger',
    0.5,
    [-0.5, -0.1, -0.2, 0],
    [
      'You are a courteous support assistant helping someone whose smart speaker keeps ordering things.',
      'The smart speaker ordered cat litter again because the TV advert said the words. I do not even own a cat.',
      'A busy dad of three whose kids talk to the speaker constantly.',
    ],
    ['stop accidental orders', 'keep using the speaker for music'],
    ['smart speaker', 'orders'],
    [
      ['The speaker ordered cat litter.', 'cat litter', 'dog food|nappies'],
      ['A TV advert triggered it.', 'tv advert|advert|television', 'the kids asked|he asked'],
      ['He does not own a cat.', 'own a cat|no cat', 'your cat'],
    ],
  ),
  s(
    35,
    'frustration',
    0.5,
    [-0.4, -0.2, -0.2, 0.1],
    [
      'You are a patient technical assistant helping someone who cannot install an app.',
      'The installer stops at 99% with error 0x80070643 and rolls everything back. I have tried three times.',
      'A musician trying to install recording software on Windows 10.',
    ],
    ['install the software', 'record the demo this weekend'],
    ['installer', 'error'],
    [
      ['The error is 0x80070643.', '0x80070643|error', '0x80070005|404'],
      ['It stops at 99% and rolls back.', '99%|rolls back', '10%|freezes'],
      ['He uses Windows 10.', 'windows 10', 'windows 11|macos|your mac'],
    ],
  ),
  s(
    36,
    'anxiety',
    0.7,
    [-0.6, -0.4, -0.5, 0.3],
    [
      'You are a reassuring support assistant helping someone whose business email was hacked.',
      'Customers are telling me my email sent them invoices with new bank details. I never sent those.',
      'A joiner running a one-man business from his van.',
    ],
    ['stop the fake invoices', 'warn customers and keep their trust'],
    ['fake invoices', 'customers'],
    [
      [
        'Fake invoices with new bank details went to customers.',
        'bank details|invoice',
        'spam adverts|nothing sent',
      ],
      ['He runs a one-man business.', 'one-man|joiner|business', 'large company|employees'],
    ],
  ),
  s(
    37,
    'frustration',
    0.4,
    [-0.3, -0.1, -0.2, 0.2],
    [
      'You are a friendly support assistant helping someone whose keyboard types the wrong symbols.',
      'When I press the @ key I get a quote mark, and the pound sign gives a hash. My emails look ridiculous.',
      'A job seeker writing cover letters on a second-hand laptop.',
    ],
    ['type her email address correctly', 'send the applications'],
    ['keyboard', '@ key'],
    [
      ['The @ key gives a quote mark.', '@|quote', 'does nothing|types a letter'],
      ['The laptop is second-hand.', 'second-hand|used', 'brand new'],
    ],
  ),
  s(
    38,
    'frustration',
    0.6,
    [-0.5, -0.3, -0.3, 0.1],
    [
      'You are a patient support assistant helping someone whose router keeps rebooting.',
      'The router restarts itself every evening around eight, right in the middle of my online class.',
      'A language tutor who teaches online in the evenings.',
    ],
    ['keep the evening classes online', 'get the provider to act'],
    ['router', 'online classes'],
    [
      ['It restarts around eight every evening.', 'eight|8pm|evening', 'mornings|midnight'],
      ['She teaches online classes then.', 'class|tutor|teach', 'gaming|streaming films'],
    ],
  ),
  s(
    39,
    'anxiety',
    0.5,
    [-0.4, -0.3, -0.3, 0.4],
    [
      'You are a calm helpdesk assistant helping someone who may have installed a fake app.',
      'I downloaded a PDF converter from a pop-up site and now my browser home page is a search site I have never heard of.',
      'A 67-year-old retired bookkeeper who handles the family finances online.',
    ],
    ['undo the install', 'know whether the banking is safe'],
    ['pdf converter', 'browser'],
    [
      ['He installed a PDF converter from a pop-up site.', 'pdf converter|pop-up', 'from the official store'],
      ['The browser home page changed.', 'home page|search', 'browser crashed|nothing changed'],
    ],
  ),
  s(
    40,
    'frustration',
    0.5,
    [-0.4, -0.2, -0.3, 0.2],
    [
      'You are a helpful technical assistant helping someone whose laptop fan is very loud.',
      'My laptop fan roars like a hairdryer even when only the browser is open, and the bottom gets hot.',
      'A student who uses the laptop on her bed for lectures.',
    ],
    ['make the laptop quieter and cooler', 'avoid damage before exams'],
    ['fan', 'heat'],
    [
      ['The fan is loud with only the browser open.', 'fan|browser', 'only when gaming'],
      ['She uses it on her bed.', 'bed', 'on a desk|cooling pad'],
    ],
  ),
];
