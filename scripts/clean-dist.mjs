// `prepack`: empties dist/ before a tarball is made, so a module deleted from src/ never ships from an old build.
// npm runs `prepare` (which compiles dist/) right after `prepack` on every pack and publish, so the tarball
// always ships a fresh dist/ without compiling twice.
import { rmSync } from 'node:fs';

rmSync(new URL('../dist/', import.meta.url), { recursive: true, force: true });
