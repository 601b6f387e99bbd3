# Compiles SOURCE (-fsyntax-only, INCLUDE on the path) and passes when the
# compiler refuses it with one error containing MESSAGE per line of the
# file that contains PER_LINE: a check meant to be refused at compile time.
file(STRINGS ${SOURCE} uses REGEX "${PER_LINE}")
list(LENGTH uses want)
execute_process(COMMAND ${COMPILER} -std=gnu11 -fsyntax-only -I${INCLUDE} ${SOURCE}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
string(REGEX MATCHALL "error:[^\n]*${MESSAGE}" refusals "${out}")
list(LENGTH refusals got)
if(rc EQUAL 0 OR NOT got EQUAL want)
  message(FATAL_ERROR "${SOURCE}: expected ${want} refusals ('${MESSAGE}'), got ${got} "
    "(compiler exit ${rc}):\n${out}")
endif()
message(STATUS "${got} of ${want} refused: ${MESSAGE}")
