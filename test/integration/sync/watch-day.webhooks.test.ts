import { describeWebhookDay } from './watch-day-story'

describeWebhookDay('sqlite')
