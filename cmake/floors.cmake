# The floors of the code base (docs/architecture.md): a folder of src/ may include headers of its
# own floor and of the floors below it, never above. The libraries of CMakeLists.txt link only
# downwards, so an upward call does not link; this check makes an upward #include fail the
# configure step (and so the build) with the file and line named, before anything compiles.
#
# The server floor is itself built of rooms (src/server/<room>/) that follow the same rule, lowest
# first, in UR_SERVER_ROOMS; ur_check_rooms makes an upward include between rooms fail the same way.
#
# Used two ways: include()d by CMakeLists.txt (checks ${PROJECT_SOURCE_DIR}/src), and as a script
# by the test tests/cli/floors.sh: cmake -DUR_FLOORS_ROOT=<a src folder> -P cmake/floors.cmake.

# Lowest first. solver and ai share a floor in the design; ai reads solved tables, so solver sits
# just below it.
set(UR_FLOORS rules engine solver ai analysis server cli)

function(ur_check_floors root)
  set(violations "")
  list(LENGTH UR_FLOORS n)
  foreach(level RANGE 0 ${n})
    if(level EQUAL n)
      break()
    endif()
    list(GET UR_FLOORS ${level} floor)
    file(GLOB_RECURSE files ${root}/${floor}/*.h ${root}/${floor}/*.cpp)
    foreach(file ${files})
      file(STRINGS ${file} includes REGEX "^[ \t]*#[ \t]*include[ \t]+\"[a-z_]+/")
      foreach(line ${includes})
        string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]+\"([a-z_]+)/.*" "\\1" target "${line}")
        list(FIND UR_FLOORS ${target} target_level)
        if(target_level GREATER level)
          file(RELATIVE_PATH rel ${root} ${file})
          string(APPEND violations "\n  ${rel}: ${line}  (${floor} may not include ${target})")
        endif()
      endforeach()
    endforeach()
  endforeach()
  if(violations)
    message(FATAL_ERROR "upward include across the floors "
                        "(${UR_FLOORS}; lowest first):${violations}")
  endif()
endfunction()

# The rooms of src/server, lowest first (docs/architecture.md, "The rooms of the server"). Two
# levels are the files at src/server/ itself rather than folders: `base` (configuration, log,
# metrics, the server's error codes: any room may use them) and `context` (server.h,
# server_context.h: what every connection shares, built on storage and accounts); `wiring`
# (server.cpp, server_context.cpp) builds the whole server and may include every room.
set(UR_SERVER_ROOMS base storage accounts context protocol cluster tables api transport wiring)
set(UR_SERVER_BASE config.h log.h log.cpp metrics.h metrics.cpp server_errc.h server_errc.cpp)
set(UR_SERVER_CONTEXT server.h server_context.h)
set(UR_SERVER_WIRING server.cpp server_context.cpp)

# The room of `path` (relative to src/server: "tables/x.h" or "log.h") in `out`; empty when it is
# in none, which the check reports so that a new room or file is placed in the order on purpose.
function(ur_room_of path out)
  set(room "")
  if(path MATCHES "^([a-z_]+)/")
    set(room ${CMAKE_MATCH_1})
    list(FIND UR_SERVER_ROOMS ${room} known)
    if(known EQUAL -1 OR room STREQUAL "base" OR room STREQUAL "context" OR room STREQUAL "wiring")
      set(room "")
    endif()
  else()
    foreach(level base context wiring)
      string(TOUPPER ${level} upper)
      list(FIND UR_SERVER_${upper} ${path} found)
      if(NOT found EQUAL -1)
        set(room ${level})
      endif()
    endforeach()
  endif()
  set(${out} "${room}" PARENT_SCOPE)
endfunction()

function(ur_check_rooms root)
  set(violations "")
  file(GLOB_RECURSE files RELATIVE ${root}/server ${root}/server/*.h ${root}/server/*.cpp)
  foreach(rel ${files})
    ur_room_of(${rel} room)
    if(NOT room)
      string(APPEND violations "\n  server/${rel}: in no room of UR_SERVER_ROOMS")
      continue()
    endif()
    list(FIND UR_SERVER_ROOMS ${room} level)
    file(STRINGS ${root}/server/${rel} includes REGEX "^[ \t]*#[ \t]*include[ \t]+\"server/")
    foreach(line ${includes})
      string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]+\"server/([^\"]+)\".*" "\\1" target
                           "${line}")
      ur_room_of(${target} target_room)
      list(FIND UR_SERVER_ROOMS "${target_room}" target_level)
      if(NOT target_room)
        string(APPEND violations "\n  server/${rel}: ${line}  (server/${target} is in no room)")
      elseif(target_level GREATER level)
        string(APPEND violations
               "\n  server/${rel}: ${line}  (${room} may not include ${target_room})")
      endif()
    endforeach()
  endforeach()
  if(violations)
    message(FATAL_ERROR "upward include across the rooms of src/server "
                        "(${UR_SERVER_ROOMS}; lowest first):${violations}")
  endif()
endfunction()

if(CMAKE_SCRIPT_MODE_FILE AND UR_FLOORS_ROOT)
  ur_check_floors(${UR_FLOORS_ROOT})
  message(STATUS "floors: no upward include under ${UR_FLOORS_ROOT}")
  if(IS_DIRECTORY ${UR_FLOORS_ROOT}/server)
    ur_check_rooms(${UR_FLOORS_ROOT})
    message(STATUS "rooms: no upward include under ${UR_FLOORS_ROOT}/server")
  endif()
endif()
