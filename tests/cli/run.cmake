# run(STATUS REGEX ARGS...): `TILECAMP ARGS` must exit with STATUS and print (stdout and stderr
# together) something REGEX matches. Included by the CLI test scripts.
function(run expected_status pattern)
  execute_process(COMMAND "${TILECAMP}" ${ARGN} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT status STREQUAL expected_status)
    message(FATAL_ERROR "tilecamp ${ARGN}: exit ${status}, expected ${expected_status}\n${out}")
  endif()
  if(NOT out MATCHES "${pattern}")
    message(FATAL_ERROR "tilecamp ${ARGN}: the output does not match ${pattern}:\n${out}")
  endif()
endfunction()
