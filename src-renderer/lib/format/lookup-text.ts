import type { LookupAsset, LookupView, PastedKind } from '@shared/ipc/lookup-schemas'

/** Each view's name in the page's navigation and titles. */
export const LOOKUP_VIEW_TITLES: Record<LookupView, string> = {
  wallet: 'Wallet',
  asset: 'Asset by id',
  'assets-by-owner': 'Assets by owner',
  'assets-by-authority': 'Assets by authority',
  'token-accounts': 'Token accounts',
  'compressed-account': 'Compressed account',
  'compressed-owner': 'Compressed by owner',
  'compressed-tx': 'Compressed transaction',
  'compressed-proof': 'Validity proof',
  'priority-fee': 'Priority fee',
  'token-metadata': 'Token metadata',
}

/** The views grouped as the page's navigation shows them. */
export const LOOKUP_VIEW_GROUPS: { title: string; views: LookupView[] }[] = [
  { title: 'Wallets', views: ['wallet'] },
  {
    title: 'Assets',
    views: ['asset', 'assets-by-owner', 'assets-by-authority', 'token-accounts'],
  },
  {
    title: 'Compressed',
    views: ['compressed-account', 'compressed-owner', 'compressed-tx', 'compressed-proof'],
  },
  { title: 'Fees and metadata', views: ['priority-fee', 'token-metadata'] },
]

/** How a choice between recognised kinds reads: "Look up as wallet". */
export const KIND_CHOICES: Record<Exclude<PastedKind, 'unknown'>, string> = {
  wallet: 'as wallet',
  asset: 'as asset',
  signature: 'as transaction',
  'compressed-hash': 'as compressed account',
}

/**
 * The app's own path of an asset's image, or '' when the answer carries none: images are
 * only ever loaded through the answer's map (never from the address the service gave).
 */
export function assetImage(asset: LookupAsset, images: Record<string, string>): string {
  for (const file of asset.content.files) {
    if (file.mime && !file.mime.startsWith('image/')) continue
    const path =
      (file.cdn_uri === undefined ? undefined : images[file.cdn_uri]) ??
      (file.uri === undefined ? undefined : images[file.uri])
    if (path) return path
  }
  return ''
}

/** An asset's display name: its metadata name, else its symbol, else its short id. */
export function assetName(asset: LookupAsset): string {
  return asset.content.metadata?.name || asset.token_info?.symbol || asset.id
}

/** The collection an asset is grouped in, or ''. */
export function assetCollection(asset: LookupAsset): string {
  return asset.grouping.find((g) => g.group_key === 'collection')?.group_value ?? ''
}

/** Splits a list typed or pasted by a person: commas, spaces or one per line. */
export function splitIds(text: string): string[] {
  return text.split(/[\s,]+/).filter((t) => t.length > 0)
}
