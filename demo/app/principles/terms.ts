/**
 * Glossary entries of the Principles and Models pages (spread into demo/app/glossary.ts's GLOSSARY). No imports:
 * the glossary is part of the first load.
 */
export const PRINCIPLES_MODELS_TERMS: Readonly<Record<string, string>> = {
  principle:
    'A short lesson learned from a dialogue, in four parts: when (the situation), what you should do, what to do ' +
    'rather than that (only when it was found by revision), and why.',
  'principle memory':
    'A named collection of principles kept in this browser. The Principles planner policy looks up the ones ' +
    'that fit the current moment of a dialogue and follows their advice.',
  'self-play':
    'Building a memory by letting a random actor talk to the simulated user many times, and keeping what worked.',
  'critic reward':
    'A score from −1 to +1 given after every turn by a rule-based critic: how much nearer the dialogue came to ' +
    'its goal. A principle is kept when a turn raised it.',
  revision:
    'When a turn did not raise the critic reward, the build goes back and tries other strategies for that turn; ' +
    'a strategy that then works gives a principle with a "rather than" part naming the ones that failed.',
  distance:
    'How far a principle\u2019s "When" is from the situation you typed, compared as word-piece fingerprints: 0 means ' +
    'the same words; smaller is nearer.',
  'language model':
    'A program that writes text. Optional here: it can play the actor, the simulated user or the judge instead ' +
    'of the hand-written template rules.',
  WebLLM:
    'A library that runs a language model inside your browser on the graphics card (WebGPU). The model is ' +
    'downloaded once, kept in the browser\u2019s cache, and nothing you type leaves your machine.',
  'shader-f16':
    'A graphics-card feature for 16-bit numbers. Model builds whose name contains "f16" need it; without it only ' +
    '"f32" builds can run, so the lab refuses f16 ones before downloading anything.',
  'local server':
    'A program on your own computer (for example Ollama or llama.cpp) that answers in the OpenAI chat format. The ' +
    'lab only talks to loopback addresses (127.0.0.1, localhost) unless you allow other hosts.',
  loopback:
    'The addresses that mean "this computer" (127.0.0.1, localhost, [::1]). Text sent there never leaves the machine.',
  'language role':
    'A part of the lab that can use a language model: the actor (what to say), the user simulator (how the user ' +
    'reads a turn and answers) and the judge (how well the dialogue went).',
  'model cache':
    'Where the browser keeps downloaded model files, so that a model loads without downloading again. Deleting ' +
    'a model from the cache frees the disk space.',
};
