import { AlertformError } from '../model/errors.js';
/** Where a metric prefix sits in a config file, by character offsets of its value. */
export interface PrefixField {
  start: number;
  end: number;
  value: string;
}

/** One graphite output found in a config: where it sends and where its prefix is. */
export interface GraphiteOutput {
  /** 1-based line of the section (for messages). */
  line: number;
  /** host:port as written. */
  endpoint: string;
  hosted: boolean;
  prefix?: PrefixField;
}

/** A config that cannot be read as its format (bad YAML...). */
export class ConfigFormatError extends AlertformError {
  constructor(message: string) {
    super('agent_config_format', message);
  }
}

/** 1-based line of a character offset. */
export function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/**
 * Replaces the key (the first dot-separated part) of each prefix, and nothing else: every other byte of the
 * text is kept.
 */
export function replaceKeyInPrefixes(text: string, fields: readonly PrefixField[], key: string): string {
  let result = text;
  for (const field of [...fields].sort((a, b) => b.start - a.start)) {
    const dot = field.value.indexOf('.');
    const keyEnd = field.start + (dot === -1 ? field.value.length : dot);
    result = result.slice(0, field.start) + key + result.slice(keyEnd);
  }
  return result;
}
