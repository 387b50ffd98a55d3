% Graphics handles display as MATLAB shows them; properties read and write.
close all
f = figure
h = plot([1 2 3], [4 5 6], 'r--')
h.LineWidth = 2;
disp(h.LineWidth)
hs = plot([1 2; 3 4])
class(gca)
isgraphics(f)
close all
isgraphics(f)
