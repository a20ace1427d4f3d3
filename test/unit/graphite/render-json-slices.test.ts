import { describe, expect, it } from 'vitest';
import { parseRenderAnswer } from '../../../src/graphite/render-json.js';
import { SLICE_BYTES, parseRenderAnswerInSlices } from '../../../src/graphite/render-json-slices.js';

/** `count` series of 3,000 points (about 35 kB each), with names and tags holding brackets, braces and quotes. */
function answer(count: number, after = ''): string {
  const series = Array.from({ length: count }, (_, s) => {
    const points = Array.from({ length: 3000 }, (_, i) => `[${i % 7 ? i / 4 : 'null'},${1000 + i * 60}]`).join(',');
    return `{"target":"a.{b}[c]\\"${s}","tags":{"x":"]},{"},"datapoints":[${points}]}`;
  });
  return `[${series.join(' ,\n ')}${after} ]  `;
}

/** What each reader makes of the bytes: the series as JSON, or the error's message. */
async function bothReaders(text: string): Promise<[string, string]> {
  const body = Buffer.from(text);
  const read = async (reader: () => unknown) => {
    try {
      return JSON.stringify(await reader());
    } catch (error) {
      return `error: ${(error as Error).message}`;
    }
  };
  return [await read(() => parseRenderAnswerInSlices(body)), await read(() => parseRenderAnswer(body))];
}

describe('parseRenderAnswerInSlices', () => {
  it('reads a large answer in slices as one read would, giving the event loop back between slices', async () => {
    const text = answer(100);
    expect(text.length).toBeGreaterThan(3 * SLICE_BYTES);
    let turns = 0;
    const ticking = setInterval(() => (turns += 1), 0);
    const [sliced, whole] = await bothReaders(text);
    clearInterval(ticking);
    expect(sliced).toBe(whole);
    expect(JSON.parse(sliced)).toHaveLength(100);
    expect(turns).toBeGreaterThan(0);
  });

  it.each([
    ['a small answer', answer(2)],
    ['a bare value among the series', answer(100, ',3')],
    ['a trailing comma', answer(100, ',')],
    ['two commas', answer(100, ',,{"target":"x","datapoints":[]}')],
    ['bytes after the list', `${answer(90)}x`],
    ['no list at all', `{"target":"x","datapoints":[]}${' '.repeat(SLICE_BYTES)}`],
  ])('gives what parseRenderAnswer gives for %s', async (_name, text) => {
    const [sliced, whole] = await bothReaders(text);
    expect(sliced).toBe(whole);
  });
});
