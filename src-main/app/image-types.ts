// Which image formats are kept, recognised by their bytes: a header can say anything.

/** Image types kept, each with the bytes its files start with. SVG is not: it can script. */
const IMAGE_TYPES: readonly { mime: string; matches: (b: Buffer) => boolean }[] = [
  {
    mime: 'image/png',
    matches: (b) => b.subarray(0, 8).equals(Buffer.from('89504e470d0a1a0a', 'hex')),
  },
  { mime: 'image/jpeg', matches: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  { mime: 'image/gif', matches: (b) => b.subarray(0, 4).toString('latin1') === 'GIF8' },
  {
    mime: 'image/webp',
    matches: (b) =>
      b.subarray(0, 4).toString('latin1') === 'RIFF' &&
      b.subarray(8, 12).toString('latin1') === 'WEBP',
  },
]

/** The `Accept` header of an image request: the types kept. */
export const ACCEPTED_IMAGE_TYPES = IMAGE_TYPES.map((t) => t.mime).join(', ')

/** The MIME type of an image kept, by its first bytes; null when it is none of them. */
export function imageMimeOf(body: Buffer): string | null {
  return IMAGE_TYPES.find((t) => t.matches(body))?.mime ?? null
}
