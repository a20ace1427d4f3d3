import type { Command } from 'commander';
import { parseCount } from '../parse.js';

/** `alertform plan [DIR]`: what apply would change, read from one paginated list per kind. */
export function registerPlanCommand(program: Command): void {
  program
    .command('plan')
    .description('show what apply would create, change, mute and delete on the server')
    .argument('[dir]', 'definitions directory', '.')
    .option('--out <file>', 'save the plan (with fingerprints of the server objects read) for `apply FILE`')
    .option('--detailed-exitcode', 'exit 2 when there are changes (0 none, 1 error)')
    .option('--ref <gitref>', 'plan the definitions as they are at a git revision (work tree untouched)')
    .option('--allow-deletes <n>', 'allow up to N deletions (over prune.max_deletes)', parseCount)
    .option('--graphite-url <url>', 'backtest the created and updated alerts against this graphite-web (env ALERTFORM_GRAPHITE_URL, `graphite:` in alertform.yaml)')
    .option('--impact', 'backtest the changed alerts (on by itself whenever a Graphite URL is known; this asks for one)')
    .option('--impact-window <duration>', 'how much history to replay, e.g. 7d, 36h', '7d')
    .option('--max-series <n>', 'warn when a wildcard matches more series than this', parseCount, 100)
    .option('--format <format>', 'text, json (as --json) or markdown (the pull request comment the Action posts)')
    .option('--out-comment <file>', 'also write that comment to FILE, for any CI to post (see `alertform comment`)')
    .option('--changed-since <rev>', 'add the changed-files table to the comment: files changed from REV to HEAD')
    .addHelpText(
      'after',
      `
Examples:
  $ alertform plan examples/ --server http://KEY@127.0.0.1:8080
  $ ALERTFORM_URL=https://api.example.com ALERTFORM_API_KEY=... alertform plan . --out plan.json
  $ alertform plan . --json --detailed-exitcode       # exit 2 when something would change
  $ alertform plan . --ref origin/main                # the definitions at a git revision
  $ alertform plan . --graphite-url http://127.0.0.1:8000 --impact-window 3d   # would they have fired?
  $ alertform plan . --out-comment plan.md && alertform comment gitlab plan.md  # a merge-request note
  $ alertform plan . --format markdown > comment.md    # the Action's comment, for Jenkins, Bitbucket, a script`,
    )
    .action(async (dir: string, _opts: unknown, command: Command) => {
      const { runPlan } = await import('../actions/plan.js');
      await runPlan(dir, command);
    });
}
