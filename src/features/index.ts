/** Features for the trainable CSTPO networks: actor observation features and critic cognitive-state features. */
export * from './observation';
export * from './cognitive';
