/**
 * Dataset loaders (ESConv, PersuasionForGood, CraigslistBargain) and seed files, browser-safe: every loader
 * takes file text, so it runs on an uploaded file too. Node helpers that read from disk are in `./node`.
 */
export {
  fileLine,
  type LoadOptions,
  type LoadResult,
  type LoadWarning,
  type SkippedRecord,
  type TextFile,
} from './result';
export { loadEsconv, esconvSeverity, esconvConcerns, EsconvRecordSchema, type EsconvRecord } from './esconv';
export { loadCb, cbFirmness, cbConcerns, CbRecordSchema, type CbRecord } from './cb';
export {
  loadP4g,
  readP4gPersuadees,
  P4G_FILE_NAMES,
  type P4gFiles,
  type P4gLoadOptions,
  type Persuadee,
} from './p4g';
export { persuadeeFromTraits, P4G_TRAIT_SCALES, type P4gTraits, type PersuadeeState } from './p4g-traits';
export { parseSeedJsonl, seedsToJsonl, isSeedJsonl } from './seedfile';
export { loadSeedsFromFiles, p4gFileKind } from './files';
export { hashKey32 } from './hash';
