/**
 * What the app's workers get for `import * as tf from '@tensorflow/tfjs'` (vite.config.ts aliases it here): the
 * tfjs core with the CPU and WebGL backends — the custom-bundle form the tfjs documentation recommends for
 * apps. The library uses tensors, ops, variables, gradients and optimizers only (all in the core); the full
 * package adds the Layers API, the graph-model converter and tf.data, none of which it uses (about 0.55 MB of
 * unminified code per training worker). The WebGPU and WebAssembly backends are imported where they are chosen
 * (workers/trainer.worker.ts, src/gpu/wasm.ts), as before.
 */
export * from '@tensorflow/tfjs-core';
// The two side effects of the full package that the library relies on: gradients of every op (for
// tf.variableGrads) and the chained tensor methods (`t.toFloat()`, …).
import '@tensorflow/tfjs-core/dist/register_all_gradients';
import '@tensorflow/tfjs-core/dist/public/chained_ops/register_all_chained_ops';
import '@tensorflow/tfjs-backend-cpu';
import '@tensorflow/tfjs-backend-webgl';
