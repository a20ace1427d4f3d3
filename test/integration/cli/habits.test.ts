import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/run-cli.js';
import { hasCommand } from '../../helpers/system.js';

/** What bash completes for `words` (the last one being typed), through the generated script. */
function completeInBash(script: string, words: string[]): Promise<string[]> {
  const quoted = words.map((word) => `'${word}'`).join(' ');
  const program = `${script}\nCOMP_WORDS=(${quoted}); COMP_CWORD=${words.length - 1}; _alertform_completion; printf '%s\\n' "\${COMPREPLY[@]}"`;
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', program], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('close', () => resolve(out.split('\n').filter(Boolean)));
  });
}

describe('CLI habits', { timeout: 120_000 }, () => {
  it('names a missing directory in one line, not as a raw ENOENT', async () => {
    const missing = join(mkdtempSync(join(tmpdir(), 'af-habits-')), 'nope');
    for (const args of [['validate', missing], ['plan', missing, '--server', 'http://k@127.0.0.1:9']]) {
      const result = await runCli(args);
      expect(result.code).toBe(1);
      expect(result.stderr).toBe(`alertform: no such directory: ${missing}\n`);
    }
  });

  it('under --json, writes errors as JSON on stdout too, with formatVersion', async () => {
    const missing = join(mkdtempSync(join(tmpdir(), 'af-habits-')), 'nope');
    const failed = await runCli(['--json', 'validate', missing]);
    expect(failed.code).toBe(1);
    expect(JSON.parse(failed.stdout)).toEqual({ formatVersion: 1, error: { message: `no such directory: ${missing}`, exitCode: 1 } });
    const usage = await runCli(['--json', 'plan', '.', '--bogus']);
    expect(usage.code).toBe(1);
    expect(JSON.parse(usage.stdout)).toEqual({ formatVersion: 1, error: { message: "unknown option '--bogus'", exitCode: 1 } });
    // A command whose own document says it failed gets no second one (JSON.parse fails on two documents).
    const bad = mkdtempSync(join(tmpdir(), 'af-habits-'));
    writeFileSync(join(bad, 'a.yaml'), 'alerts:\n  - name: x\n');
    const invalid = await runCli(['--json', 'validate', bad]);
    expect(invalid.code).toBe(1);
    expect(JSON.parse(invalid.stdout)).toMatchObject({ formatVersion: 1, valid: false });
  });

  it('carries formatVersion in the --json output of every command that has one', async () => {
    expect(JSON.parse((await runCli(['--json', 'validate', 'examples'])).stdout)).toMatchObject({ formatVersion: 1, valid: true });
    expect(JSON.parse((await runCli(['--json', 'agent', '--list'])).stdout)).toMatchObject({ formatVersion: 1, agents: expect.any(Array) });
    const dir = join(mkdtempSync(join(tmpdir(), 'af-habits-')), 'repo');
    expect(JSON.parse((await runCli(['--json', 'init', dir])).stdout)).toMatchObject({ formatVersion: 1, dir });
    const db = join(dir, 'keys.db');
    expect(JSON.parse((await runCli(['--json', 'keys', 'create', '--email', 'a@example.com', '--db', db])).stdout)).toMatchObject({ formatVersion: 1, key: expect.any(String) });
    expect(JSON.parse((await runCli(['--json', 'keys', 'list', '--db', db])).stdout)).toMatchObject({ formatVersion: 1, keys: [{ email: 'a@example.com' }] });
  });

  it('prints completion scripts generated from the commands: bash completes commands, subcommands and options', async () => {
    const bash = await runCli(['completion', 'bash']);
    expect(bash.code).toBe(0);
    expect(await completeInBash(bash.stdout, ['alertform', 'se'])).toEqual(['serve']);
    expect(await completeInBash(bash.stdout, ['alertform', 'serve', '--graph'])).toEqual(['--graphite-url']);
    expect(await completeInBash(bash.stdout, ['alertform', '--json', 'keys', 're'])).toEqual(['revoke']);
    expect(await completeInBash(bash.stdout, ['alertform', 'completion', 'f'])).toEqual(['fish']);
    const zsh = await runCli(['completion', 'zsh']);
    expect(zsh.stdout).toMatch(/^#compdef alertform\n/);
    expect(zsh.stdout).toContain('complete -o filenames -F _alertform_completion alertform');
    const fish = await runCli(['completion', 'fish']);
    expect(fish.stdout).toContain("complete -c alertform -n '__fish_use_subcommand' -a 'serve'");
    expect(fish.stdout).toContain("complete -c alertform -n '__fish_seen_subcommand_from serve' -l graphite-url -r -F");
    if (hasCommand('zsh')) {
      const loaded = await new Promise<number | null>((resolve) => spawn('zsh', ['-c', zsh.stdout], { stdio: 'ignore' }).on('close', resolve));
      expect(loaded).toBe(0);
    }
    expect((await runCli(['completion', 'tcsh'])).code).toBe(1);
  });
});
