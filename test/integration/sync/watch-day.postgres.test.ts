import { describeWatchDay } from './watch-day-story'

describeWatchDay('postgres')
