import { describe, expect, it } from 'vitest';
import { findDependencyCycle, heldBy } from '../../../src/evaluation/dependencies.js';

const alerting = (byId: Record<string, string[] | null>) => (id: string) => byId[id] ?? null;

describe('heldBy', () => {
  it('is held by any alerting parent when no nodes are mapped', () => {
    expect(heldBy('servers.dc1.web3.disk', [{ alertId: 'ping' }], alerting({ ping: ['servers.dc2.web9.ping'] }))).toEqual({ alertId: 'ping', series: 'servers.dc2.web9.ping' });
  });

  it('is not held while no parent alerts', () => {
    expect(heldBy('servers.dc1.web3.disk', [{ alertId: 'ping' }, { alertId: 'switch' }], alerting({ ping: null }))).toBeNull();
  });

  it('names no series when the parent alerts without one', () => {
    expect(heldBy('a.b', [{ alertId: 'p' }], alerting({ p: [] }))).toEqual({ alertId: 'p', series: '' });
  });

  it('with nodes, is held only by the parent series of the same host', () => {
    const deps = [{ alertId: 'ping', nodes: [1, 2] }];
    const parent = alerting({ ping: ['servers.dc1.web4.ping', 'servers.dc1.web3.ping'] });
    expect(heldBy('servers.dc1.web3.disk', deps, parent)).toEqual({ alertId: 'ping', series: 'servers.dc1.web3.ping' });
    expect(heldBy('servers.dc1.web5.disk', deps, parent)).toBeNull();
  });

  it('maps child nodes to other parent nodes', () => {
    // The child's host (node 2) is the parent's node 1: hosts.web3.ping.
    const deps = [{ alertId: 'ping', nodes: [2], parentNodes: [1] }];
    expect(heldBy('servers.dc1.web3.disk', deps, alerting({ ping: ['hosts.web3.ping'] }))).toEqual({ alertId: 'ping', series: 'hosts.web3.ping' });
    expect(heldBy('servers.dc1.web3.disk', deps, alerting({ ping: ['hosts.web4.ping'] }))).toBeNull();
  });

  it('a series shorter than the mapped nodes matches nothing', () => {
    const deps = [{ alertId: 'p', nodes: [5] }];
    expect(heldBy('a.b', deps, alerting({ p: ['c.d'] }))).toBeNull();
  });

  it('takes the first parent that holds', () => {
    const deps = [{ alertId: 'a' }, { alertId: 'b' }];
    expect(heldBy('x', deps, alerting({ a: null, b: ['y'] }))?.alertId).toBe('b');
  });
});

describe('findDependencyCycle', () => {
  it('finds none in a chain or a diamond', () => {
    expect(findDependencyCycle([{ child: 'a', parent: 'b' }, { child: 'b', parent: 'c' }, { child: 'a', parent: 'c' }])).toBeNull();
    expect(findDependencyCycle([])).toBeNull();
  });

  it('finds a self dependency', () => {
    expect(findDependencyCycle([{ child: 'a', parent: 'a' }])).toEqual(['a', 'a']);
  });

  it('finds a longer cycle as the path that closes it', () => {
    const cycle = findDependencyCycle([{ child: 'x', parent: 'a' }, { child: 'a', parent: 'b' }, { child: 'b', parent: 'c' }, { child: 'c', parent: 'a' }]);
    expect(cycle).toEqual(['a', 'b', 'c', 'a']);
  });

  it('walks a chain of 20,000 without overflowing the stack', () => {
    const edges = Array.from({ length: 20_000 }, (_, i) => ({ child: `n${i}`, parent: `n${i + 1}` }));
    expect(findDependencyCycle(edges)).toBeNull();
    edges.push({ child: 'n20000', parent: 'n0' });
    expect(findDependencyCycle(edges)).toHaveLength(20_002);
  });
});
