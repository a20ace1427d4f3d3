import { describe, expect, it } from 'vitest';
import { findDependencyCycle, heldBy } from '../../../src/evaluation/dependencies.js';
import { groupKey } from '../../../src/evaluation/grouping.js';

describe('heldBy', () => {
  const alerting = (map: Record<string, string[]>) => (id: string) => map[id] ?? null;

  it('without nodes, any alerting series of a parent holds the child', () => {
    expect(heldBy('hosts.a.disk', [{ alert: 'p' }], alerting({ p: ['hosts.z.ping'] }))).toEqual({ alertId: 'p', series: 'hosts.z.ping' });
    expect(heldBy('hosts.a.disk', [{ alert: 'p' }], alerting({}))).toBeNull();
  });

  it('with nodes, only the parent series of the same nodes holds it (parent_nodes map other positions)', () => {
    const deps = [{ alert: 'p', nodes: [1] }];
    expect(heldBy('hosts.a.disk', deps, alerting({ p: ['hosts.b.ping', 'hosts.a.ping'] }))).toEqual({ alertId: 'p', series: 'hosts.a.ping' });
    expect(heldBy('hosts.c.disk', deps, alerting({ p: ['hosts.b.ping'] }))).toBeNull();
    const mapped = [{ alert: 'sw', nodes: [1, 2], parent_nodes: [2, 3] }];
    expect(heldBy('dc.dc1.r7.disk', mapped, alerting({ sw: ['net.switch.dc1.r7'] }))).toEqual({ alertId: 'sw', series: 'net.switch.dc1.r7' });
    // A child series too short for its nodes is not held by that edge.
    expect(heldBy('short', deps, alerting({ p: ['hosts.a.ping'] }))).toBeNull();
  });
});

describe('findDependencyCycle', () => {
  it('finds a cycle (a self-dependency included) and none in a chain', () => {
    expect(findDependencyCycle([{ from: 'a', to: 'b' }, { from: 'b', to: 'c' }])).toBeNull();
    expect(findDependencyCycle([{ from: 'a', to: 'b' }, { from: 'b', to: 'c' }, { from: 'c', to: 'a' }])).toEqual(['a', 'b', 'c', 'a']);
    expect(findDependencyCycle([{ from: 'a', to: 'a' }])).toEqual(['a', 'a']);
  });
});

describe('groupKey', () => {
  it('joins the series nodes at the given positions, leaving out those past its end', () => {
    expect(groupKey('servers.dc1.web3.cpu', [1])).toBe('dc1');
    expect(groupKey('servers.dc1.web3.cpu', [1, 2])).toBe('dc1.web3');
    expect(groupKey('servers.dc1', [1, 5])).toBe('dc1');
  });
});
