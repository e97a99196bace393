import { PLANS } from '@shared/api/prices'
import { DEFAULT_KEYS } from './api-keys'
import type { PopulationId } from './chain/populations'
import { POPULATION_IDS } from './chain/populations'
import type { RatePlan } from './rate-limiter'
import { VARIANCES, type Variance } from './real-variance'

// The standalone simulator's command line (`npm run simulator -- …`, `heliograph simulator`).

/** What the standalone simulator was asked for. */
export interface SimulatorCliArgs {
  /** `--help`: print the usage and start nothing. */
  help: boolean
  port: number
  seed: number
  plan: RatePlan
  live: boolean
  keys: string[]
  freePlanKeys: string[]
  host: string
  population: PopulationId
  /** `--variance real`: the real service's variety of shapes on a share of answers. */
  variance: Variance
  /** Unix seconds the clock starts at: the synthetic histories lead up to this moment. */
  startSec: number
}

/** The usage, one line per entry (printed by `--help` and after a refused option). */
export const SIMULATOR_USAGE: readonly string[] = [
  'usage: simulator [options]',
  '',
  'Serves the simulated data service on loopback and prints its URL.',
  '',
  'options:',
  '  --port N                 port to listen on (default: a free one)',
  '  --host H                 interface to bind (default 127.0.0.1)',
  '  --seed N                 seed of the synthetic chain (default 42)',
  `  --plan P                 rate-limit plan: ${[...PLANS, 'off'].join(', ')} (default off)`,
  '  --live                   new activity on the default wallets as time passes',
  '  --keys a,b               accepted API keys (default demo)',
  '  --free-plan-keys c,d     keys on the free plan (403 on identity and funded-by)',
  `  --population P           which wallets: ${POPULATION_IDS.join(', ')} (default default)`,
  `  --variance V             answer shapes: ${VARIANCES.join(', ')} (default none); real sends,`,
  '                           on a seeded share of answers, what the real service sends',
  '                           beyond its interface text (no last cursor, null prices, "SOL")',
  '  --now T                  where the clock starts and the histories end: an ISO date',
  '                           (2026-11-01, 2026-11-01T12:00:00Z) or Unix seconds',
  '                           (default: now)',
  '  --help                   print this and exit',
]

/** A refused command line; its message is one line naming what was wrong. */
export class SimulatorArgsError extends Error {
  override name = 'SimulatorArgsError'
}

/** Unix seconds of `--now`: all digits are seconds, else an ISO date (a bare day is 00:00 UTC). */
function parseStartSec(text: string): number | null {
  if (/^\d+$/.test(text)) return Number(text)
  if (!/^\d{4}-\d{2}-\d{2}([T ].+)?$/.test(text)) return null
  const ms = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(text) ? `${text}T00:00:00Z` : text)
  return Number.isNaN(ms) ? null : Math.floor(ms / 1000)
}

/**
 * Parses the simulator's flags; throws a {@link SimulatorArgsError} on bad input.
 * `nowSec` is the clock start when `--now` is not given.
 *
 * @example
 * parseSimulatorArgs(['--seed', '5', '--now', '2026-11-01']).startSec // 1793491200
 */
export function parseSimulatorArgs(
  argv: readonly string[],
  nowSec = Math.floor(Date.now() / 1000),
): SimulatorCliArgs {
  const args: SimulatorCliArgs = {
    help: false,
    port: 0,
    seed: 42,
    plan: 'off',
    live: false,
    keys: [...DEFAULT_KEYS],
    freePlanKeys: [],
    host: '127.0.0.1',
    population: 'default',
    variance: 'none',
    startSec: nowSec,
  }
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i] ?? ''
    const [name, inline] = flag.includes('=')
      ? [flag.slice(0, flag.indexOf('=')), flag.slice(flag.indexOf('=') + 1)]
      : [flag, undefined]
    const value = (): string => {
      const v = inline ?? argv[++i]
      if (v === undefined || v === '') throw new SimulatorArgsError(`${name} needs a value`)
      return v
    }
    const integer = (min: number, max: number): number => {
      const text = value()
      const n = Number(text)
      if (!/^\d+$/.test(text) || n < min || n > max)
        throw new SimulatorArgsError(
          `${name} must be an integer from ${min} to ${max}, got ${text}`,
        )
      return n
    }
    const list = (): string[] =>
      value()
        .split(',')
        .map((k) => k.trim())
        .filter((k) => k !== '')
    switch (name) {
      case '--help':
      case '-h':
        args.help = true
        break
      case '--port':
        args.port = integer(0, 65_535)
        break
      case '--seed':
        args.seed = integer(0, 0xffffffff)
        break
      case '--plan': {
        const plan = value()
        if (plan !== 'off' && !(PLANS as readonly string[]).includes(plan))
          throw new SimulatorArgsError(`--plan must be one of ${[...PLANS, 'off'].join(', ')}`)
        args.plan = plan as RatePlan
        break
      }
      case '--live':
        args.live = true
        break
      case '--keys':
        args.keys = list()
        break
      case '--free-plan-keys':
        args.freePlanKeys = list()
        break
      case '--host':
        args.host = value()
        break
      case '--population': {
        const population = value()
        if (!(POPULATION_IDS as readonly string[]).includes(population))
          throw new SimulatorArgsError(`--population must be one of ${POPULATION_IDS.join(', ')}`)
        args.population = population as PopulationId
        break
      }
      case '--variance': {
        const variance = value()
        if (!(VARIANCES as readonly string[]).includes(variance))
          throw new SimulatorArgsError(`--variance must be one of ${VARIANCES.join(', ')}`)
        args.variance = variance as Variance
        break
      }
      case '--now': {
        const text = value()
        const startSec = parseStartSec(text)
        if (startSec === null)
          throw new SimulatorArgsError(
            `--now must be an ISO date (2026-11-01 or 2026-11-01T12:00:00Z) or Unix seconds, got ${text}`,
          )
        args.startSec = startSec
        break
      }
      default:
        throw new SimulatorArgsError(`unknown option ${flag}`)
    }
  }
  return args
}
