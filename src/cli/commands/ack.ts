import type { Command } from 'commander';
import type { AckOptions } from '../actions/ack.js';

/** `alertform ack NAME [--withdraw]`: acknowledge an alerting alert on alertform serve (an API extension). */
export function registerAckCommand(program: Command): void {
  program
    .command('ack')
    .description('acknowledge an alerting alert (no reminders or escalations until it recovers); --withdraw undoes it')
    .argument('<name>', "the alert's name")
    .option('--by <who>', 'who acknowledges (default: git config user.name, else $USER)')
    .option('--note <text>', 'why, or what is being done (shown to the channels and in the history)')
    .option('--until <duration>', 'end the acknowledgement by itself after this long (30m, 2h, 1h30m, 1d; a bare number is minutes; at most 30 days)')
    .option('--withdraw', 'withdraw the acknowledgement instead (reminders and escalations resume)')
    .addHelpText(
      'after',
      `
Only an alerting alert can be acknowledged (otherwise the server answers 409). The acknowledgement ends when the
alert recovers, when --until passes, or with --withdraw. PagerDuty, OpsGenie and VictorOps channels acknowledge
their incident; the other channels get a short "acknowledged by" message. Needs alertform serve (an extension of
the /v2 API); notifications also carry a one-click link that does the same without an API key.

Examples:
  $ alertform ack "Disk full"
  $ alertform ack "Disk full" --note "replacing the disk" --until 2h
  $ alertform ack "Disk full" --until 45            # 45 minutes, as mute --duration 45
  $ alertform ack "Disk full" --by "Ann Oncall" --json | jq .acknowledgement
  $ alertform ack "Disk full" --withdraw`,
    )
    .action(async (name: string, _opts: unknown, command: Command) => {
      const [{ optionsOf }, { runAck }] = await Promise.all([import('../context.js'), import('../actions/ack.js')]);
      await runAck(name, optionsOf<AckOptions>(command));
    });
}
