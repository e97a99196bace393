import { z } from 'zod'
import { countText } from './display-text'

// The one rule for demo data (README, "Where data lives"): what a person does to what is
// shown acts where it is shown, so rules, tags and labels made while the demo is shown
// stay with the demo. Their first own wallet switches what is shown to their own data,
// and they are told so, with what the demo keeps, the same way in the app and the CLI.

/** What stays with the demo when the person's first own wallet switches to their own data. */
export const DemoKept = z.object({
  rules: z.number().int().min(0),
  taggedWallets: z.number().int().min(0),
})
export type DemoKept = z.infer<typeof DemoKept>

/**
 * What the person is told as their first own wallet switches to their own data; `shownBy`
 * says how to see the demo again (`--data-source demo`, Settings → Data source).
 *
 * @example
 * firstOwnWalletText({ rules: 1, taggedWallets: 0 }, 'Settings → Data source')
 * // "Your own data is shown from now on. The alert rule made on the demo stays with it
 * //  (Settings → Data source shows the demo); alert channels, budgets and settings are yours."
 */
export function firstOwnWalletText(kept: DemoKept, shownBy: string): string {
  const made = [
    ...(kept.rules > 0 ? [countText(kept.rules, 'alert rule')] : []),
    ...(kept.taggedWallets > 0 ? [`the tags of ${countText(kept.taggedWallets, 'wallet')}`] : []),
  ]
  const demo =
    made.length === 0
      ? `The demo stays as it was (${shownBy} shows it)`
      : `What was made on the demo (${made.join(' and ')}) stays with it (${shownBy} shows it)`
  return `Your own data is shown from now on. ${demo}; alert channels, budgets and settings are yours and carry on.`
}
