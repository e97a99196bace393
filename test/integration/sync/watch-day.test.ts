import { describeWatchDay } from './watch-day-story'

describeWatchDay('sqlite')
