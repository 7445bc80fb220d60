"""Customer e-mails: dunning reminders for overdue invoices.

``notify`` only renders messages from the data it is given (invoices and the
customer's name and address); it does not look anything up and does not change
any state.  Deciding who gets which message, and acting on it, is the api
layer's job.
"""

from notify.dunning import DUNNING_STAGES, DunningStage, render_dunning_email, stage_for
from notify.email import Email
