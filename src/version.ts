/** alertform's version (package.json's; a unit test holds them equal): `--version` and /metrics' build info. */
export const VERSION = '0.1.0';
