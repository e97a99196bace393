/**
 * Where the migrations of a mirror being opened stand, told before each one runs: on a
 * large mirror one can take a minute (an index rebuilt over ten million rows), and a
 * person waiting on a start-up should know why.
 */
export interface MigrationProgress {
  /** The migration about to run (its name, such as `0021-filter-columns-in-indexes`). */
  name: string
  /** Its place among the migrations this opening applies, from 1. */
  step: number
  /** How many migrations this opening applies. */
  steps: number
  /**
   * The mirror was written by an earlier version (some migrations ran before): an update.
   * False for a mirror being created, whose migrations take no time.
   */
  isUpdate: boolean
}

/**
 * Told before each migration an opening mirror applies; the migration waits for what it
 * returns (a shell's window has shown the step before a long one holds up its thread).
 */
export type OnMigration = (progress: MigrationProgress) => void | Promise<void>

/** The migrations that have not run yet, in order, and whether any has. */
export function pendingMigrations(
  migrations: readonly { name: string; executedAt?: Date | undefined }[],
): { pending: string[]; isUpdate: boolean } {
  return {
    pending: migrations.filter((m) => m.executedAt === undefined).map((m) => m.name),
    isUpdate: migrations.some((m) => m.executedAt !== undefined),
  }
}
