/** The policy resources as a job field: memory files and trained actors by reference, PPDPP planners by task. */
import { z } from 'zod';
import type { PpdppModel } from '../baselines/ppdpp/model';
import type { TrainedActor } from '../rl/policy';

/** {@link PolicyResources} (src/policies/registry.ts) as a schema field: plain data, checked when loaded. */
export const PolicyResourcesField = z
  .object({
    principles: z.record(z.string(), z.unknown()).optional(),
    cstpo: z
      .record(
        z.string(),
        z.custom<TrainedActor>((v) => typeof v === 'object' && v !== null),
      )
      .optional(),
    ppdpp: z
      .record(
        z.string(),
        z.custom<PpdppModel>((v) => typeof v === 'object' && v !== null),
      )
      .optional(),
  })
  .optional();
