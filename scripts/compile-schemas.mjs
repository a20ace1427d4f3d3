// Part of `npm run build:dist`, after tsc: writes dist/model/compiled-validators.js, the JSON Schema validators
// compiled ahead of time, so that no command compiles a schema at start (see validatorFor in src/model/schemas.ts).
import { writeFileSync } from 'node:fs';

const { standaloneValidatorsSource } = await import(new URL('../dist/model/compile-schemas.js', import.meta.url).href);
writeFileSync(new URL('../dist/model/compiled-validators.js', import.meta.url), standaloneValidatorsSource());
