import { shortAddress, tokenLabel } from '@shared/domain/display-text'
import type { AmountSeriesChoice } from '@shared/ipc/wallet-schemas'

/** A picker's group of options: fungible tokens (no heading), then NFTs by collection. */
export interface ChoiceGroup {
  heading: string | null
  options: { mint: string; label: string }[]
}

/**
 * The chart's token picker: tokens by their symbol, NFTs under one heading per collection
 * ("NFTs · Solar Flare") by their own names. NFTs of a collection often share one symbol,
 * so a name that would repeat in the list gets its short mint, and no two options read
 * the same.
 */
export function chartChoiceGroups(choices: readonly AmountSeriesChoice[]): ChoiceGroup[] {
  const tokens: ChoiceGroup = { heading: null, options: [] }
  const collections = new Map<string, ChoiceGroup>()
  const labelOf = (c: AmountSeriesChoice): string =>
    c.isNft ? c.nftName?.trim() || tokenLabel(c) : tokenLabel(c)
  const counts = new Map<string, number>()
  for (const c of choices) counts.set(labelOf(c), (counts.get(labelOf(c)) ?? 0) + 1)
  for (const c of choices) {
    const label = labelOf(c)
    const option = {
      mint: c.mint,
      label: (counts.get(label) ?? 0) > 1 ? `${label} · ${shortAddress(c.mint)}` : label,
    }
    if (!c.isNft) {
      tokens.options.push(option)
      continue
    }
    const heading = c.nftCollection ? `NFTs · ${c.nftCollection}` : 'NFTs'
    const group = collections.get(heading) ?? { heading, options: [] }
    group.options.push(option)
    collections.set(heading, group)
  }
  return [tokens, ...collections.values()].filter((g) => g.options.length > 0)
}
