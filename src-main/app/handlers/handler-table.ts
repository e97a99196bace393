import type { z } from 'zod'
import type { Channel, ChannelOutput, contract } from '@shared/ipc/contract'

/** One handler per channel, receiving the input already parsed by the channel's schema. */
export type HandlerTable = {
  [C in Channel]: (
    input: z.output<(typeof contract)[C]['input']>,
  ) => Promise<ChannelOutput<C>> | ChannelOutput<C>
}

/**
 * Some channels' handlers, e.g. one area's: `return { … } satisfies HandlerGroup` types
 * each handler by its channel's schemas without naming the channels again; the core's
 * full HandlerTable then fails to compile while a channel has no handler.
 */
export type HandlerGroup = Partial<HandlerTable>
