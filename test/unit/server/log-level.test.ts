import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { trackLogLevel } from '../../../src/server/log-level.js';

describe('trackLogLevel', () => {
  it('sets the level of the logger and of every child made before or after, grandchildren too', () => {
    const lines: string[] = [];
    const logger = pino({ level: 'warn' }, new Writable({ write: (chunk, _encoding, done) => (lines.push(String(chunk)), done()) }));
    const setLevel = trackLogLevel(logger);
    const child = logger.child({ component: 'deliveries' });
    const grandchild = child.child({ part: 'x' });
    child.debug('hidden');
    setLevel('debug');
    const later = logger.child({ component: 'evaluator' });
    child.debug('child');
    grandchild.debug('grandchild');
    later.debug('later');
    logger.debug('root');
    expect(lines.map((line) => JSON.parse(line).msg)).toEqual(['child', 'grandchild', 'later', 'root']);
    setLevel('error');
    child.warn('quiet');
    expect(lines).toHaveLength(4);
  });
});
