import { describeWatchFuzz } from './watch-fuzz-story'

describeWatchFuzz(1)
