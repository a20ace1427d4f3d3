import { describe, expect, it } from 'vitest';
import { parseEvalState } from '../../../../src/evaluation/stored-state.js';
import { initialEvalState } from '../../../../src/evaluation/transitions.js';
import { previousStateOf, unchangedText } from '../../../../src/server/evaluator/state-text-cache.js';

const healthy = JSON.stringify(initialEvalState('healthy', []));

describe('the cycle cache of stored states', () => {
  it('parses a stored text once and hands out the same frozen state, equal to what parseEvalState reads', () => {
    const first = previousStateOf(healthy, 'healthy', []);
    expect(previousStateOf(healthy, 'healthy', [])).toBe(first);
    expect(first).toEqual(parseEvalState(healthy, 'healthy', []));
    expect(Object.isFrozen(first) && Object.isFrozen(first.triggered)).toBe(true);
    expect(() => (first.triggered as unknown[]).push({ metric: 'x', value: 1 })).toThrow();
  });

  it('reads an absent or unreadable text from the alert status each time, as parseEvalState does', () => {
    expect(previousStateOf(null, 'alerting', ['a.b'])).toEqual(parseEvalState(null, 'alerting', ['a.b']));
    expect(previousStateOf('not json', 'alerting', ['a.b'])).toEqual(parseEvalState('not json', 'alerting', ['a.b']));
    expect(previousStateOf('not json', 'healthy', [])).toEqual(parseEvalState('not json', 'healthy', []));
    expect(previousStateOf('{"version":2}', 'alerting', ['c'])).toEqual(parseEvalState('{"version":2}', 'alerting', ['c']));
  });

  it('tells an unchanged new state by its fields, and leaves every other case to serializing', () => {
    const previous = previousStateOf(healthy, 'healthy', []);
    expect(unchangedText(healthy, previous, { ...previous })).toBe(healthy);
    expect(unchangedText(healthy, previous, { ...previous, lastNotifiedAt: 5 })).toBeUndefined();
    expect(unchangedText(healthy, previous, { ...previous, triggered: [] })).toBeUndefined();
    const { version, ...rest } = previous;
    expect(unchangedText(healthy, previous, { ...rest, version } as typeof previous)).toBeUndefined();
    // A state not parsed from that text, or a text that does not serialize back the same way (spacing, missing
    // fields filled in by parseEvalState): compared by serializing, as before.
    expect(unchangedText(healthy, { ...previous }, { ...previous })).toBeUndefined();
    const spaced = healthy.replace(/,/g, ', ');
    const fromSpaced = previousStateOf(spaced, 'healthy', []);
    expect(unchangedText(spaced, fromSpaced, { ...fromSpaced })).toBeUndefined();
    const partial = '{"version":1,"status":"healthy","triggered":[]}';
    const fromPartial = previousStateOf(partial, 'healthy', []);
    expect(unchangedText(partial, fromPartial, { ...fromPartial })).toBeUndefined();
  });
});
