/** PPDPP: a learned strategy planner (SFT on human labels, then REINFORCE against the per-turn critic). */
export * from './model';
export * from './train';
