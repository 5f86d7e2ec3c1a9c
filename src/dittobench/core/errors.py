"""The root of every error dittobench raises on purpose, and the tree of them all.

Each layer subclasses ``DittobenchError``; its message is one line naming what and where. Two
class attributes say what the error means at each edge:

- ``exit_code``, for the command line, which catches the root once and prints the message: 2 for
  bad input (a flag, a file, a stored value), 1 for work that failed.
- ``http_status``, for the scoring service, whose one handler answers ``{"error": message}`` with
  it: 400 a malformed value, 401 a page that needs a sign-in, 404 nothing by that name, 409 a
  state that forbids the change, 422 documents that are each readable but do not fit together,
  502 a harness or judge that failed, 503 a broker that is out of reach. 500 is the server's own
  fault (its content, store, settings or keys): the body then says only "internal error" and the
  message goes to the operator's log. A route that knows more (which field, which versions it
  runs) raises ``service.context.ApiError`` with its own status instead.

The tree: each class with its ``http_status`` and ``exit_code`` and the module under
``dittobench`` that defines it. ``*``: the status is given where the error is raised. A test
(``tests/unit/test_errors_tree.py``) checks it against the classes themselves, so a new error
class needs its line here::

    class                               http exit   module
    DittobenchError                      500    2   core.errors
    ├── CanonicalJSONError               500    2   core.canonical
    ├── SeedError                        400    2   core.prng
    ├── DecodeError                      400    2   spec.codec
    ├── JudgeConfigError                 500    2   spec.judging
    ├── LockedFileError                  500    2   spec.locked_files
    ├── ReaderConfigError                500    2   spec.reading
    ├── SeedSourceError                  500    2   spec.seeds
    ├── UnknownRunSizeError              400    2   spec.sizes
    ├── UnknownVersionError              400    2   spec.versions
    ├── VocabularyError                  400    2   spec.vocab
    ├── WireIdError                      400    2   spec.wireids
    ├── PackError                        500    2   packs.load
    ├── RepliesError                     500    2   packs.replies
    ├── CatalogTextError                 500    2   catalog.tools
    ├── UnknownCatalogError              500    2   catalog.tools
    ├── ExternalFileError                400    2   generate.external.shape
    ├── UnknownReleaseError              400    2   generate.external.shape
    ├── GrammarError                     500    2   generate.grammar
    ├── AskingError                      500    2   generate.memory.asking
    ├── MemoryGenerationError            500    2   generate.memory.build
    ├── OpenQuestionError                500    2   generate.memory.open
    ├── CoinError                        500    2   generate.persona.coin
    ├── ExternalGradeError               422    2   grade.external
    ├── UnknownLexiconError              500    2   grade.lexicon
    ├── UnknownAnswerKindError           500    2   grade.memory_kinds
    ├── GradeInputError                  422    2   grade.run
    ├── AnswersError                     400    2   engine.blind
    ├── BodyTooLarge                     502    2   engine.client
    ├── BodyUnreadable                   502    2   engine.client
    ├── HarnessError                     502    1   engine.client
    ├── JudgeError                       502    2   engine.judging
    ├── RunError                         409    1   engine.runner
    │   ├── LeaseLost                    409    1   engine.runner
    │   └── RunHeld                      409    1   engine.runner
    ├── StoreError                       500    2   store.errors
    │   ├── BadContentError              500    2   store.errors
    │   ├── NoStoreError                 500    2   store.errors
    │   ├── RunBusyError                 409    2   store.errors
    │   ├── RunTakenError                409    2   store.errors
    │   ├── ActiveJobError               409    2   store.jobs
    │   └── WindowStateError             409    2   store.jobs
    ├── ExportError                      400    2   receipts.export
    ├── ExternalReceiptError             422    2   receipts.external
    ├── KeyFileError                     500    2   receipts.keys
    ├── LogEntryError                    422    1   receipts.logentries
    ├── ManifestError                    400    2   receipts.manifest
    ├── MerkleError                      400    2   receipts.merkle
    ├── PackMismatchError                422    1   receipts.packs
    ├── ReceiptError                     400    2   receipts.proofs
    ├── RegradeError                     422    1   receipts.regrade
    ├── ReceiptInputError                422    2   receipts.sign
    ├── SuiteError                       409    2   receipts.suite
    ├── SandboxError                     502    1   sandbox
    │   └── ArchiveError                 400    2   sandbox
    ├── BrokerError                      503    2   workers.broker
    ├── JobCancelled                     409    1   workers.driver
    ├── ServiceStopping                  503    1   workers.driver
    ├── UnsafeHarness                    400    1   workers.driver
    ├── ViewError                        500    2   views.model
    │   └── DatasetMismatch              500    2   views.model
    ├── PatternError                     500    2   study.patterns
    ├── StudyError                       400    2   study.run
    ├── AuthError                        500    2   service.auth
    ├── ApiError                           *    2   service.context
    ├── PageError                          *    2   service.pagekit
    ├── SignInNeeded                     401    2   service.pagekit
    ├── SettingsError                    500    2   service.settings
    ├── UnsafeURLError                   400    2   service.ssrf
    ├── WindowError                      400    2   service.windows
    └── RejudgeError                     422    1   cli.rejudging

Anything else reaching either edge is a bug: the command line keeps its traceback, the service
answers 500 and logs it.
"""

from __future__ import annotations


class DittobenchError(Exception):
    """An error with a message meant for the person who ran the command."""

    exit_code: int = 2
    """2: the input was bad (a flag, a file, a stored value); 1: the work itself failed."""

    http_status: int = 500
    """What the scoring service answers when this reaches its edge (module docstring)."""


__all__ = ["DittobenchError"]
