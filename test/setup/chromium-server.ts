import type { TestProject } from 'vitest/node'
import { launchChromiumServer } from '../helpers/chromium'

// One Chromium for the whole e2e run: each test file connects to it and opens its own
// pages, instead of starting a browser of its own (about a second of CPU each).

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's Chromium, for `chromium.connect`. */
    chromiumEndpoint: string
  }
}

/** Starts the run's Chromium and hands its endpoint to the test files; returns what stops it. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = await launchChromiumServer()
  project.provide('chromiumEndpoint', server.wsEndpoint())
  return () => server.close()
}
