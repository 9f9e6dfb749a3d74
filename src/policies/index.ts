/**
 * The policy catalogue (every policy by name, as data), its builders, and the registry that plays it over
 * loaded resources.
 */
export * from './catalogue';
export * from './builders';
export * from './registry';
