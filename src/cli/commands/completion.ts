import { Argument, type Command } from 'commander';
import { renderBashCompletion, renderFishCompletion, renderZshCompletion } from '../completion-scripts.js';
import { writeOut } from '../write-out.js';

/** `alertform completion bash|zsh|fish`: a shell completion script, generated from the commands themselves. */
export function registerCompletionCommand(program: Command): void {
  program
    .command('completion')
    .description('print a shell completion script for bash, zsh or fish')
    .addArgument(new Argument('<shell>', 'the shell').choices(['bash', 'zsh', 'fish']))
    .addHelpText(
      'after',
      `
Examples:
  $ source <(alertform completion bash)                                   # this shell only
  $ alertform completion bash > ~/.local/share/bash-completion/completions/alertform
  $ alertform completion zsh > "\${fpath[1]}/_alertform"
  $ alertform completion fish > ~/.config/fish/completions/alertform.fish`,
    )
    .action(async (shell: 'bash' | 'zsh' | 'fish') => {
      const render = { bash: renderBashCompletion, zsh: renderZshCompletion, fish: renderFishCompletion }[shell];
      await writeOut(render(program));
    });
}
