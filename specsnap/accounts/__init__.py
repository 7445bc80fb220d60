"""Who runs what: the accounts untrusted code runs as (`identity`), the pools they are claimed
from (`pools`), and what an account owns (`ownership`)."""
