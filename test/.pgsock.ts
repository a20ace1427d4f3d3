import pg from 'pg';
import { startPostgres } from './helpers/postgres.js';
const cluster = await startPostgres();
const dir = (cluster as any).dir ?? null;
const sockDir = process.env.SOCKDIR;
async function bench(url: string, label: string) {
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  await pool.query('select 1');
  const t = process.cpuUsage(); const w = Date.now();
  for (let i = 0; i < 3000; i++) await pool.query('select $1::int as x', [i]);
  const u = process.cpuUsage(t);
  console.log(label, 'node cpu ms', ((u.user + u.system) / 1000).toFixed(0), 'wall', Date.now() - w);
  await pool.end();
}
const port = cluster.port;
const { execSync } = await import('node:child_process');
const pgDir = execSync(`ls -d ${process.env.TMPDIR ?? '/tmp'}/alertform-pg-* | tail -1`).toString().trim();
const pgcpu = () => execSync(`ps -o cputime= -u postgres | awk -F: '{s+=$1*3600+$2*60+$3} END {print s}'`).toString().trim();
for (let r = 0; r < 2; r++) {
  let a = pgcpu(); await bench(cluster.url, 'tcp '); console.log(' pg cpu s', a, '->', pgcpu());
  a = pgcpu(); await bench(`postgres://postgres@/postgres?host=${encodeURIComponent(pgDir)}&port=${port}`, 'unix'); console.log(' pg cpu s', a, '->', pgcpu());
}
await cluster.stop?.();
process.exit(0);
