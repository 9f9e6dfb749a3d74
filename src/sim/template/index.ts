/** Template (text-rule) implementations of the simulator's roles: the fast mode, deterministic given the seed. */
import type { SimRoles } from '../roles';
import { TemplateModeClassifier } from './mode';
import { TemplateChangeProposer } from './proposer';
import { TemplateResponder } from './responder';

export { TemplateModeClassifier, influenceScore } from './mode';
export { TemplateChangeProposer, isCallToAction } from './proposer';
export { TemplateResponder } from './responder';

/** The three simulator roles in template mode. */
export function templateSimRoles(): SimRoles {
  return {
    modeClassifier: new TemplateModeClassifier(),
    changeProposer: new TemplateChangeProposer(),
    responder: new TemplateResponder(),
  };
}
