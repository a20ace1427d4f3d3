import { runCommandLine } from './run.js';

await runCommandLine(process.argv);
