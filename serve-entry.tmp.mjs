import { runCommandLine } from './.test-build/cli/run.js'; await runCommandLine(process.argv);
