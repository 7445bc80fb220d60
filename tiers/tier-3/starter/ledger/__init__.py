"""Customer accounts and their double-entry-style ledger.

Every amount a customer owes or pays is an entry on their account: charges
increase the balance, payments and credits decrease it.  A positive balance is
money the customer owes; a negative balance is credit in the customer's favour.

The journal that stores the entries (``ledger.journal``) is private to this
package: other packages read and write entries only through :class:`Ledger`.
"""

from ledger.accounts import Account, AccountStatus
from ledger.book import Ledger
from ledger.errors import (
    AccountClosedError,
    AccountNotFoundError,
    AccountNotSettledError,
    InvalidAccountError,
    LedgerError,
)
from ledger.journal import EntryKind
from ledger.journal import JournalEntry as Entry
