/**
 * `proactive-dialogue-lab/server`: the environment server for trainers on other machines (`pdl serve`: one
 * simulator per WebSocket session), the chat export of its trajectories and the protocol version. Node only; its
 * errors are in `proactive-dialogue-lab/node`.
 */
export { EnvServer, boundedFetch, isLoopback, taskEntry, type TaskEntry } from '../server';
export { chatTrajectory } from '../server/export';
export { PROTOCOL_VERSION } from '../server/protocol';
export { portInUseError } from '../server/errors';
