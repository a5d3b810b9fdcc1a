/**
 * Validators of the drafts' meta-schemas made ahead of time, by the id of the meta-schema each checks against
 * (`META_SCHEMA_IDS` in schemaDrafts.ts). This is the source version: none, so ajv compiles a draft's meta-schema
 * the first time it checks a schema against it (tsx, the tests). The bundles replace this module with ajv's
 * standalone code for the meta-schemas, generated at build time (scripts/metaSchemaCode.ts through the
 * `precompiledMetaSchemas` plugin of scripts/build.mjs): that compile was most of the first tool schema's cost.
 */
import type { ValidateFunction } from 'ajv';

export const PRECOMPILED_META_SCHEMA_VALIDATORS: Readonly<Record<string, ValidateFunction | undefined>> = {};
