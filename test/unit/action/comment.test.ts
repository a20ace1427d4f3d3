import { describe, expect, it } from 'vitest';
import { describeWherePlanIs, fitMarkdown, formatMarker, GITHUB_COMMENT_LIMIT, isOurComment, parseMarker } from '../../../src/action/comment.js';

describe('the hidden marker', () => {
  it('reads back the hash and path it was written with', () => {
    const marker = formatMarker({ hash: 'a1b2c3', path: 'alerts/prod dir' });
    expect(marker).toMatch(/^<!-- alertform-plan hash=a1b2c3 path=\S+ -->$/);
    expect(parseMarker(`${marker}\n### plan`)).toEqual({ hash: 'a1b2c3', path: 'alerts/prod dir' });
  });

  it('tells our comment for a path from other comments and from ours for another path', () => {
    const body = `${formatMarker({ hash: 'x1', path: '.' })}\nhello`;
    expect(isOurComment(body, '.')).toBe(true);
    expect(isOurComment(body, 'other')).toBe(false);
    expect(isOurComment('LGTM <!-- alertform-plan -->', '.')).toBe(false);
    expect(isOurComment(null, '.')).toBe(false);
  });
});

describe('fitting markdown under the comment limit', () => {
  const note = describeWherePlanIs({ runUrl: 'https://github.com/acme/alerts/actions/runs/1', artifactName: 'alertform-plan' });

  it('leaves a short body untouched', () => {
    expect(fitMarkdown('short\nbody', note)).toEqual({ text: 'short\nbody', cut: false });
  });

  it('cuts a 3,000-alert body under 65,536 characters and ends with where the whole plan is', () => {
    const lines = ['**Plan: 3000 to create, 0 to update, 0 to mute, 0 to delete.**', '<details><summary>Plan details</summary>', '', '```diff'];
    for (let i = 0; i < 3000; i++) lines.push(`+ alert "service-${i}-latency-p99-above-threshold" metric: prod.svc${i}.latency.p99 above 250`);
    lines.push('```', '', '</details>');
    const body = lines.join('\n');
    expect(body.length).toBeGreaterThan(GITHUB_COMMENT_LIMIT);
    const { text, cut } = fitMarkdown(body, note);
    expect(cut).toBe(true);
    expect(text.length).toBeLessThan(GITHUB_COMMENT_LIMIT);
    expect(text.startsWith('**Plan: 3000 to create')).toBe(true);
    expect(text.endsWith(note)).toBe(true);
    expect(note).toContain('job summary');
    expect(note).toContain('alertform-plan');
    // The cut closed the open code fence and the open <details>, so the note renders as markdown.
    expect(text.match(/^```/gm)!.length % 2).toBe(0);
    expect(text.match(/<details>/g)!.length).toBe(text.match(/<\/details>/g)!.length);
  });

  it('cuts one enormous line too', () => {
    const { text, cut } = fitMarkdown('x'.repeat(200_000), note, 1000);
    expect(cut).toBe(true);
    expect(text.length).toBeLessThan(1000);
  });
});
