import { AlertformClient } from '../client/api.js';
import { parseServerUrl, redactUrl } from '../client/connection.js';
import { resolveServer, type ResolvedServer, type ServerChoice } from '../client/resolve-server.js';
import type { LoadedProject } from '../definitions/source.js';
import { loadProject } from '../definitions/source.js';
import type { ProjectConfig, PruneConfig } from '../definitions/project.js';
import type { Problem } from '../definitions/problems.js';
import { AlertformError } from '../model/errors.js';
import { startEarlyRead } from './early-read.js';
import { planAgainstServer } from './make-plan.js';
import { readServerWarnings, serverWarningsFor } from './server-warnings.js';
import type { ActualState } from './state.js';
import type { Plan } from './types.js';
import type { ReadReporter } from '../progress/reads.js';

/** Which server a plan is computed against. */
export type ServerRequest =
  | {
      /** Flags or inputs; ALERTFORM_URL / ALERTFORM_API_KEY come next (from `env`). */
      given?: ServerChoice;
      /** Whether alertform.yaml's `server:` may be used (the CLI: yes; the Action: never). */
      trustProjectServer: boolean;
      /** What to say when nothing names a server. */
      missingHint: string;
    }
  /** A client made by the caller (the demo's own server). */
  | { client: AlertformClient; printable: string };

export interface PlanProjectOptions {
  /** The definitions directory. */
  dir: string;
  /** Read the definitions as they were at this git revision. */
  ref?: string;
  /** `${VAR}` values and ALERTFORM_URL / ALERTFORM_API_KEY (default process.env). */
  env?: NodeJS.ProcessEnv;
  server: ServerRequest;
  /** Overrides alertform.yaml's prune: false turns it off, true requires its globs. */
  prune?: boolean;
  /** `--allow-deletes N`. */
  allowDeletes?: number;
  now?: Date;
  /**
   * Runs once the definitions loaded, before the plan is computed: a caller's checks of its own flags. (The server's
   * lists may be being read already; a check that throws stops that read, and nothing of it is reported.)
   */
  beforeRead?: (loaded: LoadedProject) => void;
  /** Told after each page the clients made here read (a client given by the caller reports as it was made to). */
  reportRead?: ReadReporter;
}

/** A plan of a project: definitions that do not load give their problems; otherwise the plan and what it read. */
export type ProjectPlan =
  | { status: 'invalid'; problems: Problem[]; loaded: LoadedProject }
  | {
      status: 'planned';
      plan: Plan;
      /** The server's state the plan was computed from (apply needs its ids). */
      actual: ActualState;
      client: AlertformClient;
      /** The server's base URL as it may be printed (never the key). */
      server: string;
      loaded: LoadedProject;
    };

/**
 * The one way every caller (the CLI's plan and apply, the demo, the Action) plans a project: load the definitions,
 * resolve the server once, read its state, compute. Nothing is printed here.
 */
export async function planProject(options: PlanProjectOptions): Promise<ProjectPlan> {
  const env = options.env ?? process.env;
  // The server's lists are read while the definitions load, when the server is known without them.
  const early = startEarlyRead(options.server, env, options.reportRead);
  try {
    const loaded = await loadProject(options.dir, { env, ...(options.ref ? { ref: options.ref } : {}) });
    if (loaded.problems.length > 0) return { status: 'invalid', problems: loaded.problems, loaded };
    options.beforeRead?.(loaded);
    const { client, server } = early ?? connect(options.server, loaded.config, env, options.reportRead);
    const prune = resolvePrune(options.prune, loaded.config);
    const lists = await early?.lists;
    // The server's own warnings (alertform serve's /readyz) are read beside the state, not after it.
    const [{ plan, actual }, warnings] = await Promise.all([
      planAgainstServer(loaded.definitions, client, {
        prune,
        ...(options.allowDeletes !== undefined ? { allowDeletes: options.allowDeletes } : {}),
        ...(options.now ? { now: options.now } : {}),
        ...(lists ? { lists } : {}),
      }),
      readServerWarnings(client),
    ]);
    plan.warnings.push(...serverWarningsFor(loaded.definitions, actual, warnings));
    return { status: 'planned', plan, actual, client, server, loaded };
  } finally {
    early?.stop();
  }
}

function connect(request: ServerRequest, config: ProjectConfig, env: NodeJS.ProcessEnv, reportRead?: ReadReporter): { client: AlertformClient; server: string } {
  if ('client' in request) return { client: request.client, server: request.printable };
  const resolved: ResolvedServer = resolveServer({
    env,
    missingHint: request.missingHint,
    ...(request.given ? { given: request.given } : {}),
    ...(request.trustProjectServer && config.server ? { projectServer: config.server } : {}),
  });
  return { client: new AlertformClient({ ...resolved, ...(reportRead ? { reportRead } : {}) }), server: redactUrl(parseServerUrl(resolved.server, resolved.apiKey).baseUrl) };
}

/**
 * An override of alertform.yaml's prune turns pruning off, or on with its globs. It never invents globs: deleting
 * every object of an account that these files do not define is too wide a default (other teams may share it).
 */
export function resolvePrune(override: boolean | undefined, config: ProjectConfig): PruneConfig | false {
  if (override === undefined) return config.prune;
  if (!override) return false;
  if (!config.prune) throw new AlertformError('prune_without_globs', 'prune: true needs `prune: {match: [globs]}` in alertform.yaml, naming what this repository owns');
  return config.prune;
}
