import { readFileSync } from 'node:fs';

/**
 * The most bytes the kernel may hold for one loopback TCP connection: the sender's socket buffer and the receiver's,
 * which autotuning can grow to tcp_rmem's maximum (32 MB on some machines) while the receiver does not read. A test
 * that proves a reader stopped early must send more than this past the point where it stops.
 */
export function kernelBufferBytes(): number {
  const max = (name: string) => Number(readFileSync(`/proc/sys/net/ipv4/${name}`, 'utf8').trim().split(/\s+/)[2]);
  return max('tcp_rmem') + max('tcp_wmem');
}
