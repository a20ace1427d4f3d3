// The Action's entry, bundled into action/dist/index.mjs: the runner runs it with the workspace as cwd.
import { runAction } from './run.js';

await runAction();
