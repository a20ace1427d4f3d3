import { describe, expect, it } from 'vitest';
import { groupKey } from '../../../src/evaluation/grouping.js';

describe('groupKey', () => {
  it('takes the series path nodes at the indexes, joined by dots', () => {
    expect(groupKey('servers.dc1.web3.cpu', [1])).toBe('dc1');
    expect(groupKey('servers.dc1.web3.cpu', [1, 2])).toBe('dc1.web3');
    expect(groupKey('servers.dc1.web3.cpu', [2, 1])).toBe('web3.dc1');
  });

  it('counts a node the series lacks as empty', () => {
    expect(groupKey('short', [0, 3])).toBe('short.');
  });

  it('no nodes: one group for everything', () => {
    expect(groupKey('servers.dc1.web3.cpu', [])).toBe('');
  });
});
