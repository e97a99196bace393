import { z } from 'zod'

/** A request from the page: run `channel` with `input`, answer under `id`. */
export const InvokeMessage = z.object({
  type: z.literal('invoke'),
  id: z.number().int(),
  channel: z.string(),
  // Absent for channels whose input is void (JSON drops undefined).
  input: z.unknown().optional(),
})
export type InvokeMessage = z.infer<typeof InvokeMessage>
