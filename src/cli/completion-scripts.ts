import type { Command } from 'commander';

/** One command of the tree, as completion needs it: its path (`keys create`), subcommands and long options. */
interface CompletionNode {
  path: string;
  description: string;
  subcommands: string[];
  /** Values an argument accepts (`completion bash|zsh|fish`, `agent install telegraf|otel|collectd`). */
  choices: string[];
  options: Array<{ flag: string; description: string; takesValue: boolean }>;
}

/** Every command of the program, depth first, built from commander's own definitions (they never drift apart). */
function listNodes(program: Command): CompletionNode[] {
  const nodes: CompletionNode[] = [];
  // --version belongs to the root alone.
  const globals = program.options.flatMap((option) => (option.long && option.long !== '--version' ? [option.long] : []));
  const walk = (command: Command, path: string) => {
    nodes.push({
      path,
      description: command.description(),
      subcommands: command.commands.map((sub) => sub.name()),
      choices: command.registeredArguments.flatMap((argument) => argument.argChoices ?? []),
      options: command.options.flatMap((option) =>
        option.long ? [{ flag: option.long, description: option.description, takesValue: option.required || option.optional }] : [],
      ),
    });
    for (const sub of command.commands) walk(sub, path ? `${path} ${sub.name()}` : sub.name());
  };
  walk(program, '');
  // Global options work after any command too.
  for (const node of nodes.slice(1)) {
    for (const flag of globals) if (!node.options.some((option) => option.flag === flag)) node.options.push({ flag, description: '', takesValue: false });
  }
  return nodes;
}

const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/** bash: words for the deepest command path typed so far; files and directories otherwise. */
export function renderBashCompletion(program: Command): string {
  const nodes = listNodes(program);
  const cases = nodes
    .map((node) => `    ${quote(node.path)}) words=${quote([...node.subcommands, ...node.choices, ...node.options.map((o) => o.flag)].join(' '))} ;;`)
    .join('\n');
  return `# alertform completion for bash. Load it: source <(alertform completion bash)
# or install it: alertform completion bash > ~/.local/share/bash-completion/completions/alertform
_alertform_completion() {
  local cur path="" word words i
  cur="\${COMP_WORDS[COMP_CWORD]}"
  # The command path: the words before the cursor that name (sub)commands.
  for ((i = 1; i < COMP_CWORD; i++)); do
    word="\${COMP_WORDS[i]}"
    case "$word" in -*) continue ;; esac
    if _alertform_words "\${path:+$path }$word" >/dev/null; then path="\${path:+$path }$word"; fi
  done
  words=$(_alertform_words "$path")
  COMPREPLY=($(compgen -W "$words" -- "$cur"))
  if [ \${#COMPREPLY[@]} -eq 0 ]; then COMPREPLY=($(compgen -f -- "$cur")); fi
}
_alertform_words() {
  local words
  case "$1" in
${cases}
    *) return 1 ;;
  esac
  echo "$words"
}
complete -o filenames -F _alertform_completion alertform
`;
}

/** zsh: the bash function through zsh's bashcompinit (shipped with zsh). */
export function renderZshCompletion(program: Command): string {
  return `#compdef alertform
# alertform completion for zsh. Load it: source <(alertform completion zsh)
autoload -U +X bashcompinit && bashcompinit
${renderBashCompletion(program)
  .split('\n')
  .filter((line) => !line.startsWith('# alertform completion for bash') && !line.startsWith('# or install it'))
  .join('\n')}`;
}

/** fish: a `complete` line per command and per option, conditioned on the command path typed. */
export function renderFishCompletion(program: Command): string {
  const lines = ['# alertform completion for fish. Install it: alertform completion fish > ~/.config/fish/completions/alertform.fish', 'complete -c alertform -f'];
  const nodes = listNodes(program);
  const conditionFor = (path: string) => {
    if (!path) return '__fish_use_subcommand';
    const words = path.split(' ');
    const children = nodes.find((node) => node.path === path)?.subcommands ?? [];
    return `__fish_seen_subcommand_from ${words.at(-1)}${children.length > 0 ? `; and not __fish_seen_subcommand_from ${children.join(' ')}` : ''}`;
  };
  for (const node of nodes) {
    const condition = quote(conditionFor(node.path));
    for (const sub of nodes.filter((other) => other.path !== '' && other.path.split(' ').slice(0, -1).join(' ') === node.path)) {
      lines.push(`complete -c alertform -n ${condition} -a ${quote(sub.path.split(' ').at(-1)!)} -d ${quote(sub.description)}`);
    }
    if (node.choices.length > 0) lines.push(`complete -c alertform -n ${condition} -a ${quote(node.choices.join(' '))}`);
    for (const option of node.options) {
      lines.push(`complete -c alertform -n ${condition} -l ${option.flag.slice(2)}${option.takesValue ? ' -r -F' : ''} -d ${quote(option.description)}`);
    }
  }
  return `${lines.join('\n')}\n`;
}
