/**
 * Fitted models of Cog-Sim (docs/architecture.md "Fitting template mode to people"): the pure fitting and inference code — tokens and hashed n-grams, softmax
 * regression, a smoothed bigram language model, ridge regression, the ESConv mood model, and the parameter file's
 * encodings. The data pipeline that fits them is `src/validity/fit.ts` plus `scripts/fit-sim.ts` (the mood model),
 * run by `npm run fit-sim`; the simulator reads the committed parameters through `src/sim/fitted.ts`.
 */
export * from './codec';
export * from './inputs';
export * from './linear';
export * from './ngram';
export * from './softmax';
export * from './tokens';
export * from './params';
export * from './price';
export * from './mood';
export * from './disposition';
