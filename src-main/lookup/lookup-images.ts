import type { Asset } from '@shared/api/das'
import type { LookupResult } from '@shared/ipc/lookup-schemas'

/**
 * Every image address an answer mentions (each asset's image files, the wallet's NFTs)
 * mapped to the app's own path for it, so the page never loads a foreign host.
 * `urlFor` is the image cache's: '' for an address it will not serve.
 */
export function imagesOfResult(
  result: LookupResult,
  urlFor: (uri: string) => string,
): Record<string, string> {
  const uris = new Set<string>()
  const addAssets = (assets: readonly Asset[]): void => {
    for (const asset of assets)
      for (const file of asset.content.files)
        if (file.mime?.startsWith('image/') && file.uri) uris.add(file.uri)
  }
  if (result.view === 'asset') addAssets(result.assets)
  if (result.view === 'assets-by-owner' || result.view === 'assets-by-authority')
    addAssets(result.page.items)
  if (result.view === 'wallet') {
    addAssets(result.assets.items)
    for (const nft of result.balances.nfts ?? []) if (nft.imageUri !== '') uris.add(nft.imageUri)
  }
  const images: Record<string, string> = {}
  for (const uri of uris) {
    const url = urlFor(uri)
    if (url !== '') images[uri] = url
  }
  return images
}
