// `node --import ./record-modules.mjs ...`: appends the URL of every module the process resolves to the file named
// by ALERTFORM_RECORD_MODULES, one a line (test/integration/cli/cold-start.test.ts reads which modules a command loaded).
import { register } from 'node:module';

register(
  `data:text/javascript,${encodeURIComponent(`
    import { appendFileSync } from 'node:fs';
    export async function resolve(specifier, context, next) {
      const resolved = await next(specifier, context);
      appendFileSync(process.env.ALERTFORM_RECORD_MODULES, resolved.url + '\\n');
      return resolved;
    }
  `)}`,
);
