% mfilename names the running script; 'fullpath' adds its folder.
disp(mfilename)
[folder, name] = fileparts(mfilename('fullpath'));
disp(name)
disp(isfolder(folder))
disp(endsWith(mfilename('fullpathext'), '.m'))
